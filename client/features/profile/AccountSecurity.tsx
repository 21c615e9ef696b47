import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { PasswordField } from '#client/ui/PasswordField';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { changePassword, signOutEverywhere } from '#client/lib/session';
import { authErrorMessage, acceptNewPassword } from '#client/lib/session/error-message';
import './profile.css';
import { SubmitButton } from '#client/ui/SubmitButton';

/** "Change password" on /profile: the server keeps this session and ends the member's others. */
export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');

  const { busy, run } = useSubmitOnce(async () => {
    if (!acceptNewPassword(next, confirm)) return;
    try {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      toast.success('Password updated', { description: 'You stay signed in here; your other devices have been signed out.' });
    } catch (e) {
      toast.error('Update Failed', { description: authErrorMessage(e) });
    }
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <section className="profile-section" aria-labelledby="change-password-title">
      <h2 id="change-password-title">Change password</h2>
      <form className="form card" onSubmit={onSubmit} aria-label="Change password">
        <PasswordField label="Current Password" name="current-password" autoComplete="current-password" value={current} onChange={setCurrent} />
        <PasswordField label="New Password" name="new-password" autoComplete="new-password" value={next} onChange={setNext} />
        <PasswordField label="Confirm New Password" name="confirm-password" autoComplete="new-password" value={confirm} onChange={setConfirm} />
        <SubmitButton busy={busy} busyLabel="Updating...">
          Update Password
        </SubmitButton>
      </form>
    </section>
  );
}

/**
 * "Sign out everywhere": ends every session of the member, this one included, then goes to /login.
 */
export function SignOutEverywhere() {
  const navigate = useNavigate();
  const { busy, run } = useSubmitOnce(async () => {
    try {
      await signOutEverywhere();
      toast.success('Signed out everywhere', { description: 'Every device signed in to your account has been signed out.' });
      await navigate({ to: '/login', replace: true });
    } catch (e) {
      toast.error('Sign out Failed', { description: authErrorMessage(e) });
    }
  });
  return (
    <section className="profile-section" aria-labelledby="sign-out-everywhere-title">
      <h2 id="sign-out-everywhere-title">Sign out everywhere</h2>
      <p className="muted">Signs you out on every device, this one included. Use it if you lost a device or signed in somewhere you should not have.</p>
      <button type="button" className="button block" onClick={() => void run()} disabled={busy} aria-busy={busy}>
        {busy ? 'Signing out...' : 'Sign Out Everywhere'}
      </button>
    </section>
  );
}
