import type { ComponentType, ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { splitMentions } from '#sync/protocol/mentions';

/** A mention's link to the member's creator page, /@handle. */
export type MentionLinkProps = { handle: string; children: ReactNode };

function CreatorLink({ handle, children }: MentionLinkProps) {
  return (
    <Link to="/@{$handle}" params={{ handle }} className="mention">
      {children}
    </Link>
  );
}

/**
 * A comment's text with its @mentions as links: only the handles the server named as members'
 * (`mentions`); any other @word stays text, as typed. `link` is the router's link unless a test
 * renders without a router.
 */
export function MentionText({
  text,
  mentions,
  link: MentionLink = CreatorLink,
}: {
  text: string;
  mentions: readonly string[];
  link?: ComponentType<MentionLinkProps>;
}) {
  return (
    <>
      {splitMentions(text, mentions).map((p, i) =>
        p.kind === 'mention' ? (
          <MentionLink key={i} handle={p.handle}>
            {p.text}
          </MentionLink>
        ) : (
          p.text
        ),
      )}
    </>
  );
}
