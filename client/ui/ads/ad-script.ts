const AD_SCRIPT = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';
let scriptLoad: Promise<boolean> | null = null;

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

/** Loads the ad service's script once; resolves false (quietly) when it is blocked or unreachable. */
export function loadAdScript(clientId: string): Promise<boolean> {
  scriptLoad ??= new Promise<boolean>((resolve) => {
    const s = document.createElement('script');
    s.async = true;
    s.crossOrigin = 'anonymous';
    s.src = `${AD_SCRIPT}?client=${encodeURIComponent(clientId)}`;
    s.onload = () => resolve(true);
    s.onerror = () => {
      scriptLoad = null;
      s.remove();
      resolve(false);
    };
    document.head.appendChild(s);
  });
  return scriptLoad;
}

export function pushAd(): void {
  try {
    (window.adsbygoogle = window.adsbygoogle ?? []).push({});
  } catch {
    // An ad that cannot fill leaves its reserved space empty.
  }
}
