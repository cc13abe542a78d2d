import 'reflect-metadata';

export * from './config';
export * from './logger';
export * from './database';
export * from './redis';
export * from './health';
export * from './transport';
export * from './platform.module';
export * from './bootstrap';
export * from './validate';
export * from './rpc-pipeline';
export * from './tokens';
export * from './metrics';
export * from './request-context';
export * from './tracing';
export * from './account-changes';
