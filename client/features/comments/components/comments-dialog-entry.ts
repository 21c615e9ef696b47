// Default export for React.lazy: the comments dialog (and Radix) in its own chunk, off the feed's
// first screen.
export { CommentsDialog as default } from './CommentsDialog';
