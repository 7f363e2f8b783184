export { classifyCommand, classifyCommandSync } from './classify';
export { PROGRAMS } from './programs';
export type { Classification, PolicyContext, Verdict } from './types';
export { loadShellParser } from '../sh/parser';
