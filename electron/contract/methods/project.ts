import { z } from 'zod';
import type { MethodTable } from '../table';
import { GrantKind } from '../approval-grants';

export const ProjectSummary = z.object({
  path: z.string(),
  key: z.string(),
  name: z.string(),
  git: z.boolean(),
  /** Marker files found at the root, e.g. package.json, Cargo.toml. */
  markers: z.array(z.string()),
  /** Runners that apply to this project (uv, cargo, pnpm, bash, docker, git). */
  runners: z.array(z.string()),
});
export type ProjectSummary = z.infer<typeof ProjectSummary>;

/** A file the project folder brings (.erasmus/mcp.json, settings.json, protocols/*.md) and whether it is trusted. */
export const ProjectTrustFile = z.object({ path: z.string(), sha256: z.string(), trusted: z.boolean(), text: z.string() });
export type ProjectTrustFile = z.infer<typeof ProjectTrustFile>;

export const projectMethods = {
  /** Open a folder (dropped, chosen in a dialog, or typed): inspect it and remember it as recent. */
  'project.open': {
    params: z.object({ path: z.string().min(1).max(4096) }).strict(),
    result: ProjectSummary,
  },
  /** Ask the face for a folder (native dialog); `path` is null when cancelled or unsupported. */
  'project.chooseFolder': {
    params: z.object({}).strict(),
    result: z.object({ path: z.string().nullable(), supported: z.boolean() }),
  },
  /** What the folder brings; untrusted files are ignored by every face until trusted. */
  'project.trust.list': {
    params: z.object({ path: z.string().min(1).max(4096) }).strict(),
    result: z.object({ project: z.string(), files: z.array(ProjectTrustFile) }),
  },
  /** Trusts files as the user saw them: each with the sha256 shown (a file changed since is refused). */
  'project.trust.grant': {
    params: z
      .object({ path: z.string().min(1).max(4096), files: z.array(z.object({ path: z.string().min(1).max(512), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict()).min(1).max(64) })
      .strict(),
    result: z.object({ project: z.string(), files: z.array(ProjectTrustFile) }),
  },
  /** What the user always allows in this project on approval cards (a run's "for this run" answers are not listed). */
  'project.approvals.list': {
    params: z.object({ path: z.string().min(1).max(4096) }).strict(),
    result: z.object({ kinds: z.array(GrantKind) }),
  },
  /** Takes one "always allow" back: that kind is asked again in this project. */
  'project.approvals.revoke': {
    params: z.object({ path: z.string().min(1).max(4096), kind: GrantKind }).strict(),
    result: z.object({ kinds: z.array(GrantKind) }),
  },
  /**
   * A text file's current content, for an approval that overwrites it (the preview diffs against it).
   * `exists` is false for a new file; `text` is null when the file is binary or over 512 kB.
   */
  'project.fileText': {
    params: z.object({ path: z.string().min(1).max(4096) }).strict(),
    result: z.object({ exists: z.boolean(), text: z.string().nullable(), reason: z.string().optional() }),
  },
  /**
   * Makes the opened folder a git repository (the user pressed the button: Erasmus's own command, not the model's): `git
   * init` and a first commit of the files there, so a run's commits hold only its own work. `held`: names that keep the
   * files uncommitted (made or secret, and no .gitignore leaves them out); the repository is made all the same.
   */
  'project.makeRepository': {
    params: z.object({ path: z.string().min(1).max(4096) }).strict(),
    result: z.object({ project: ProjectSummary, committed: z.number().int().nonnegative(), held: z.array(z.string()) }),
  },
  'project.recent': {
    params: z.object({}).strict(),
    result: z.object({ projects: z.array(ProjectSummary) }),
  },
} satisfies MethodTable;
