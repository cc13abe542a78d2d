export * from './room-events';
