import type { CreatorProfile } from '#client/lib/people';
import { useReportDialog } from '#client/ui/safety/useReportDialog';
import { useSafetyActions, useSafetyState } from '#client/ui/safety/useSafety';

/**
 * Report, mute and block on another member's creator page (beside Follow and Share). Whether they are blocked or muted is
 * the device's blocks and mutes stores' (queued changes applied, offline too), else the page's flags.
 */
export function CreatorSafety({ profile }: { profile: CreatorProfile }) {
  // The page's viewer flags (GET /api/people/{handle}) while the device's stores are read.
  const state = useSafetyState(profile.id) ?? profile.viewer;
  const safety = useSafetyActions();
  const report = useReportDialog();
  const at = `@${profile.handle}`;
  return (
    <>
      <button
        type="button"
        className="button secondary"
        aria-haspopup="dialog"
        aria-label={`Report ${at}`}
        onClick={() => report.open({ type: 'member', id: profile.id, userId: profile.id, handle: profile.handle })}
      >
        Report
      </button>
      {state.muted ? (
        <button type="button" className="button secondary" onClick={() => safety.unmute(profile.id)}>
          Unmute
        </button>
      ) : (
        <button type="button" className="button secondary" aria-label={`Mute ${at}`} onClick={() => safety.mute(profile.id)}>
          Mute
        </button>
      )}
      {state.blocked ? (
        <button type="button" className="button secondary" onClick={() => safety.unblock(profile.id)}>
          Unblock
        </button>
      ) : (
        <button type="button" className="button secondary danger" aria-label={`Block ${at}`} onClick={() => safety.block(profile.id, profile.handle)}>
          Block
        </button>
      )}
      {report.dialog}
    </>
  );
}
