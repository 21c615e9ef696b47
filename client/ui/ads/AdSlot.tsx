import { useEffect, useRef } from 'react';
import { usePublicSettings } from '#client/lib/public-settings';
import { useOnline } from '#client/lib/useOnline';
import { loadAdScript, pushAd } from './ad-script';

/**
 * The third-party ad slot (docs/pwa.md, "Ads"). Renders the ad tag only when an ad client id and slot id are
 * configured and the browser is online; otherwise it keeps its space, silently.
 */
export function AdSlot({ placement }: { placement: 'auth' | 'home' }) {
  const settings = usePublicSettings();
  const online = useOnline();
  const clientId = settings?.ads.client_id ?? '';
  const slotId = settings?.ads.slot_id ?? '';
  const active = online && clientId !== '' && slotId !== '';
  const ref = useRef<HTMLModElement>(null);

  useEffect(() => {
    if (!active || !ref.current) return;
    let cancelled = false;
    void loadAdScript(clientId).then((ok) => {
      if (ok && !cancelled) pushAd();
    });
    return () => {
      cancelled = true;
    };
  }, [active, clientId, slotId]);

  return (
    <aside className={`ad-slot ad-${placement}`} aria-label="Advertisement">
      {active ? (
        <ins
          ref={ref}
          className="adsbygoogle"
          style={{ display: 'block' }}
          data-ad-client={clientId}
          data-ad-slot={slotId}
          data-ad-format="auto"
          data-full-width-responsive="true"
        />
      ) : null}
    </aside>
  );
}
