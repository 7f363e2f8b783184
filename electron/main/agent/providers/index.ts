export * from './types';
export * from './config';
export * from './plugins';
export * from './ai-sdk-stream';
export * from './known-models';
