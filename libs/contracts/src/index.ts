export * from './patterns';
export * from './health';
export * from './errors';
