// Only one video plays at a time: starting one pauses whichever played before.
let current: HTMLVideoElement | null = null;

export function claimPlayback(video: HTMLVideoElement): void {
  if (current && current !== video && !current.paused) current.pause();
  current = video;
}

export function releasePlayback(video: HTMLVideoElement): void {
  if (current === video) current = null;
}
