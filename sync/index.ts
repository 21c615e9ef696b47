export * from './mutations/catalogue';
export * from './mutations/parse-mutation';
export * from './mutations/limits';
export { IdSchema } from './protocol/ids';
export { mutationVideoId } from './mutations/video-id';
export * from './protocol/error-codes';
export * from './protocol/messages';
export * from './protocol/feed-cursor';
