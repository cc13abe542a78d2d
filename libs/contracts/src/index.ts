import 'reflect-metadata';

export * from './patterns';
export * from './health';
export * from './errors';
export * from './messages';
export * from './rules';
export * from './validation';
export * from './place-types';
export * from './billing';
export * from './auth';
export * from './session';
export * from './search-rules';
export * from './places';
export * from './filter-categories';
export * from './filter-rules';
export * from './rooms';
export * from './decisions';
export * from './commands';
