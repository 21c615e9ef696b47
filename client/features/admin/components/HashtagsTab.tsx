import { useState } from 'react';
import { toast } from 'sonner';
import { messageOf } from '#client/lib/http/api-error';
import { useAdminActions, useAdminHashtags, type AdminHashtag } from '../api';
import { Pager } from './Pager';
import { AdminTable, ListStatus } from './admin-parts';
import { useDebounced } from './useDebounced';

/**
 * Hashtags (docs/moderation.md, "Hidden hashtags"): the most used first, or those starting with what
 * is typed; hiding one takes it out of search and takes its page away until it is shown again.
 */
export function HashtagsTab() {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const list = useAdminHashtags(query);
  const actions = useAdminActions();
  const [working, setWorking] = useState<string | null>(null);

  const onToggle = async (h: AdminHashtag) => {
    if (working) return;
    setWorking(h.tag);
    try {
      const now = await actions.setHashtagHidden(h.tag, !h.hidden);
      if (now.hidden) toast.success('Hashtag hidden', { description: `#${now.tag} no longer appears in search and its page is gone.` });
      else toast.success('Hashtag visible', { description: `#${now.tag} appears in search and has its page again.` });
    } catch (e) {
      toast.error('Update Failed', { description: messageOf(e) });
    } finally {
      setWorking(null);
    }
  };

  const items = list.data?.items ?? [];
  return (
    <section aria-label="Hashtags" className="admin-section">
      <div className="field search-field">
        <label htmlFor="admin-hashtag-search">Search hashtags</label>
        <input
          id="admin-hashtag-search"
          type="search"
          placeholder="Start of a tag"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          maxLength={100}
        />
      </div>
      <ListStatus
        error={list.error}
        loading={list.loading && !list.data}
        empty={items.length === 0}
        loadingLabel="Loading hashtags"
        emptyText={query ? 'No hashtags start with this.' : 'No hashtags yet.'}
      >
        <AdminTable caption="Hashtags" columns={['Tag', 'Videos', 'Status', 'Actions']}>
          {items.map((h) => (
            <tr key={h.tag} data-tag={h.tag}>
              <td>#{h.tag}</td>
              <td>{h.videos_count}</td>
              <td>
                <span className={`status ${h.hidden ? 'suspended' : 'active'}`}>{h.hidden ? 'Hidden' : 'Visible'}</span>
              </td>
              <td className="row-actions">
                <button
                  type="button"
                  className="button small"
                  // Not disabled: a disabled button drops the keyboard's focus, and the answer keeps the row.
                  aria-disabled={working === h.tag}
                  onClick={() => void onToggle(h)}
                  aria-label={`${h.hidden ? 'Unhide' : 'Hide'} #${h.tag}`}
                >
                  {h.hidden ? 'Unhide' : 'Hide'}
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      </ListStatus>
      <Pager
        label="Hashtags"
        pageNumber={list.pageNumber}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onPrevious={list.previous}
        onNext={list.next}
      />
    </section>
  );
}
