const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

export const formatDate = (ms: number) => dateFormat.format(new Date(ms));

export const CONFIRM_DELETE_USER = 'Are you sure you want to delete this user? This action cannot be undone.';
export const CONFIRM_DELETE_VIDEO = 'Are you sure you want to delete this video? This action cannot be undone.';
