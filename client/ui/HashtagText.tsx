import { Link } from '@tanstack/react-router';
import { splitHashtags } from '#sync/protocol/hashtags';
import './hashtag-text.css';

/** A title or description with each #tag a link to its page, /tag/{tag}, by the rules the server files videos by. */
export function HashtagText({ text }: { text: string }) {
  return (
    <>
      {splitHashtags(text).map((part, i) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <Link key={i} to="/tag/$tag" params={{ tag: part.tag }} className="hashtag-link">
            {part.text}
          </Link>
        ),
      )}
    </>
  );
}
