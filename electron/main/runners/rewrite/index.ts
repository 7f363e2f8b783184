export { onPath, rewriteCommand, rewriteCommandSync } from './rewrite';
export type { AppliedRewrite, RewriteContext, RewriteResult } from './rewrite';
export { REWRITE_RULES } from './rules';
export type { RewriteRule, RuleId } from './rules';
export { lockfileTools } from './lockfiles';
