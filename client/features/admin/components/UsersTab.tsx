import { useState } from 'react';
import { toast } from 'sonner';
import { useAdminActions, useAdminUsers, type AdminUser } from '../api';
import { CONFIRM_DELETE_USER, formatDate } from '../format';
import { Pager } from './Pager';
import { AdminTable, DeleteButton, ListStatus } from './admin-parts';
import { messageOf } from '#client/lib/http/api-error';
import { useDebounced } from './useDebounced';

function statusOf(u: AdminUser): string {
  if (!u.is_active) return 'Suspended';
  return u.account_status === 'pending_payment' ? 'Active (payment pending)' : 'Active';
}

export function UsersTab({ selfId }: { selfId: string }) {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const list = useAdminUsers(query);
  const actions = useAdminActions();
  const [working, setWorking] = useState<string | null>(null);

  const act = async (id: string, fn: () => Promise<void>) => {
    if (working) return;
    setWorking(id);
    try {
      await fn();
    } finally {
      setWorking(null);
    }
  };

  const onDelete = (u: AdminUser) =>
    act(u.id, async () => {
      if (!window.confirm(CONFIRM_DELETE_USER)) return;
      try {
        await actions.deleteUser(u.id);
        toast.success('User deleted', { description: 'User has been removed from the platform' });
      } catch (e) {
        toast.error('Delete Failed', { description: messageOf(e) });
      }
    });

  const onToggle = (u: AdminUser) =>
    act(u.id, async () => {
      try {
        if (u.is_active) {
          await actions.suspendUser(u.id);
          toast.success('User suspended', { description: `${u.name} can no longer sign in.` });
        } else {
          await actions.reactivateUser(u.id);
          toast.success('User reactivated', { description: `${u.name} can sign in again.` });
        }
      } catch (e) {
        toast.error('Update Failed', { description: messageOf(e) });
      }
    });

  const items = list.data?.items ?? [];
  return (
    <section aria-label="Users" className="admin-section">
      <div className="field search-field">
        <label htmlFor="admin-user-search">Search users</label>
        <input id="admin-user-search" type="search" placeholder="Name or email" value={search} onChange={(e) => setSearch(e.target.value)} maxLength={100} />
      </div>
      <ListStatus
        error={list.error}
        loading={list.loading && !list.data}
        empty={items.length === 0}
        loadingLabel="Loading users"
        emptyText={query ? 'No users match this search.' : 'No users yet.'}
      >
        <AdminTable caption="Users" columns={['Name', 'Email', 'Joined', 'Status', 'Actions']}>
          {items.map((u) => (
            <tr key={u.id} data-user-id={u.id}>
              <td>
                {u.name} {u.is_admin ? <span className="badge">Admin</span> : null}
              </td>
              <td>{u.email}</td>
              <td>{formatDate(u.created_at)}</td>
              <td>
                <span className={`status ${u.is_active ? 'active' : 'suspended'}`}>{statusOf(u)}</span>
              </td>
              <td className="row-actions">
                {u.id === selfId ? (
                  <span className="muted">You</span>
                ) : u.is_admin ? (
                  // The server refuses to suspend or delete an admin (only `npm run admin` changes admins).
                  <span className="muted">Admin</span>
                ) : (
                  <>
                    <button
                      type="button"
                      className="button small"
                      disabled={working === u.id}
                      onClick={() => void onToggle(u)}
                      aria-label={`${u.is_active ? 'Suspend' : 'Reactivate'} ${u.name}`}
                    >
                      {u.is_active ? 'Suspend' : 'Reactivate'}
                    </button>
                    <DeleteButton name={u.name} busy={working === u.id} onDelete={() => void onDelete(u)} />
                  </>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      </ListStatus>
      <Pager label="Users" pageNumber={list.pageNumber} hasPrevious={list.hasPrevious} hasNext={list.hasNext} onPrevious={list.previous} onNext={list.next} />
    </section>
  );
}
