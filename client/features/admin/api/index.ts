export * from './hooks';
