import type { CostlyReason } from '#client/lib/connection';
import { estimatedBytes, megabytes, qualityName, TARGET_SHORT_SIDE, type VideoFacts } from './plan';
import type { ShrinkState } from './useShrinkOffer';
import './shrink.css';

const WHY: Record<CostlyReason, string> = {
  slow: 'Your connection looks slow',
  cellular: 'You are on mobile data',
  'save-data': 'Data saver is on',
};

function offerText(facts: VideoFacts, original: File, reason: CostlyReason): string {
  const big = Math.min(facts.width, facts.height) > TARGET_SHORT_SIDE;
  const what = big ? `This video is ${qualityName(facts.width, facts.height)} (${megabytes(original.size)}).` : `This video is ${megabytes(original.size)}.`;
  const how = big ? 'shrink it to 720p before uploading?' : 'shrink it before uploading?';
  return `${what} ${WHY[reason]}: ${how} About ${megabytes(Math.min(estimatedBytes(facts), original.size))}.`;
}

interface Props {
  state: ShrinkState;
  onShrink(): void;
  onKeepOriginal(): void;
}

/** The offer to shrink, its progress with a Cancel, and what came of it; nothing when there is nothing to say. */
export function ShrinkOffer({ state, onShrink, onKeepOriginal }: Props) {
  if (state.step === 'offer') {
    return (
      <div className="shrink-offer" role="group" aria-label="Shrink before uploading">
        <p className="shrink-text" role="status">
          {offerText(state.facts, state.original, state.reason)}
        </p>
        <div className="shrink-actions">
          <button type="button" className="button" onClick={onKeepOriginal}>
            Keep original
          </button>
          <button type="button" className="button primary" onClick={onShrink}>
            Shrink
          </button>
        </div>
      </div>
    );
  }
  if (state.step === 'shrinking') {
    const pct = Math.round(state.fraction * 100);
    return (
      <div className="shrink-offer">
        <p className="shrink-text" aria-hidden="true">{`Shrinking… ${pct}%`}</p>
        {/* Read out every tenth, not every percent: a minute of video would be a hundred announcements. */}
        <p className="sr-only" aria-live="polite">{`Shrinking… ${Math.floor(pct / 10) * 10}%`}</p>
        <div className="progress-track" role="progressbar" aria-label="Shrink progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
          <div className="progress-fill" style={{ width: `${pct}%` }} />
        </div>
        <div className="shrink-actions">
          <button type="button" className="button" aria-label="Cancel shrinking" onClick={onKeepOriginal}>
            Cancel
          </button>
        </div>
      </div>
    );
  }
  if (state.step === 'shrunk') {
    return (
      <div className="shrink-offer">
        <p className="shrink-text" role="status">{`Shrunk: ${megabytes(state.shrunk.size)} instead of ${megabytes(state.original.size)}.`}</p>
        <div className="shrink-actions">
          <button type="button" className="button" onClick={onKeepOriginal}>
            Use original
          </button>
        </div>
      </div>
    );
  }
  if (state.step === 'failed') {
    return (
      <p className="hint" role="status" title={state.message}>
        This video could not be shrunk here; the original will be uploaded.
      </p>
    );
  }
  return null;
}
