export * from './mutations/schemas';
export * from './mutations/parse-mutation';
export * from './protocol/error-codes';
export * from './protocol/messages';
export * from './protocol/feed-cursor';
