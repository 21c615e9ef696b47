import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MentionText, type MentionLinkProps } from './MentionText';

// The router's Link needs a router: the test renders mentions as plain anchors to the same address.
const Anchor = ({ handle, children }: MentionLinkProps) => <a href={`/@${handle}`}>{children}</a>;
const render = (text: string, mentions: string[]) => renderToStaticMarkup(<MentionText text={text} mentions={mentions} link={Anchor} />);

describe('MentionText', () => {
  it("links the members' handles the item names, as typed, and leaves every other @word as text", () => {
    expect(render('Hi @Ravi and @nobody, see @meera.', ['ravi', 'meera'])).toBe('Hi <a href="/@ravi">@Ravi</a> and @nobody, see <a href="/@meera">@meera</a>.');
    expect(render('mail asha@example.com', ['example.com', 'asha'])).toBe('mail asha@example.com');
    expect(render('@ravi', [])).toBe('@ravi');
  });

  it('escapes the text around the links', () => {
    expect(render('<b>@ravi</b>', ['ravi'])).toBe('&lt;b&gt;<a href="/@ravi">@ravi</a>&lt;/b&gt;');
  });
});
