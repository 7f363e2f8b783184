export * from './entries';
export * from './log';
export * from './read';
export * from './list';
