export { createFilesServer, type FilesServerOptions } from './server';
export { runFilesServerStdio } from './stdio';
export { FILE_TOOLS } from './tools';
export { Scope, ScopeError, protectedRemoval } from './scope';
