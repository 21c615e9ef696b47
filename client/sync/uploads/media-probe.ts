/** Reads a video file's duration from its metadata in the browser; null when the browser cannot decode it. */
export function readVideoDuration(file: Blob, timeoutMs = 10_000): Promise<number | null> {
  return withVideo(file, timeoutMs, (video, done) => {
    video.onloadedmetadata = () => done(Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : null);
  });
}

/**
 * Grabs a poster frame (about a second in, or the middle of a shorter clip) as a JPEG of at most
 * 480 px wide, well under the server's 512 KiB limit. Null when the browser cannot decode the video.
 */
export function grabPoster(file: Blob, timeoutMs = 10_000): Promise<Blob | null> {
  return withVideo(file, timeoutMs, (video, done) => {
    video.onloadedmetadata = () => {
      const d = Number.isFinite(video.duration) ? video.duration : 0;
      video.currentTime = Math.min(1, d / 2);
    };
    video.onseeked = () => {
      const scale = Math.min(1, 480 / (video.videoWidth || 480));
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round((video.videoWidth || 320) * scale));
      canvas.height = Math.max(1, Math.round((video.videoHeight || 568) * scale));
      const ctx = canvas.getContext('2d');
      if (!ctx) return done(null);
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((b) => done(b && b.size <= 512 * 1024 ? b : null), 'image/jpeg', 0.8);
    };
  });
}

function withVideo<T>(file: Blob, timeoutMs: number, setup: (video: HTMLVideoElement, done: (v: T | null) => void) => void): Promise<T | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    let settled = false;
    const done = (v: T | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(v);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    video.preload = 'metadata';
    video.muted = true;
    video.playsInline = true;
    video.onerror = () => done(null);
    setup(video, done);
    video.src = url;
  });
}
