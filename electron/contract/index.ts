export * from './jsonrpc';
export * from './table';
export * from './methods/index';
export * from './methods/app';
export * from './methods/secrets';
export * from './methods/project';
export * from './events';
export * from './pipe';
