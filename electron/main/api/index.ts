export * from './core';
export * from './dispatcher';
export * from './events';
export * from './connection';
