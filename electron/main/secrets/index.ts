export * from './store';
export * from './redactor';
export * from './interpolate';
