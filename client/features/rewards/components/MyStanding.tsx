import type { OwnStanding } from '../api';

function Line({ label, standing }: { label: string; standing: OwnStanding | null }) {
  return (
    <div className="my-standing-item">
      <span className="muted">{label}</span>
      {standing ? (
        <strong>
          Rank #{standing.rank} · {standing.points} {standing.points === 1 ? 'point' : 'points'}
        </strong>
      ) : (
        <strong>Not ranked yet</strong>
      )}
    </div>
  );
}

/** The member's own place on both boards, also when it is far below the top. */
export function MyStanding({ creator, viewer }: { creator: OwnStanding | null; viewer: OwnStanding | null }) {
  return (
    <section className="card my-standing" aria-label="Your standing">
      <h2>Your standing</h2>
      <Line label="As a creator" standing={creator} />
      <Line label="As a viewer" standing={viewer} />
    </section>
  );
}
