import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Spinner } from '#client/ui/Spinner';
import { TextField } from '#client/ui/TextField';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { updateSessionUser } from '#client/lib/session';
import { ChangePasswordForm, SignOutEverywhere } from './AccountSecurity';
import { HandleSettings } from './HandleSettings';
import { MediaSettings } from './MediaSettings';
import { NotificationSettings } from './NotificationSettings';
import { SafetySettings } from './SafetySettings';
import { useProfileData, useSaveProfileName } from './useProfileData';
import { SubmitButton } from '#client/ui/SubmitButton';
import { MAX_PROFILE_NAME_LENGTH } from '#sync/mutations/limits';

export function ProfilePage() {
  const profile = useProfileData();
  const save = useSaveProfileName();
  // null until the member types: the field follows the stored name (which sync may update) until then.
  const [name, setName] = useState<string | null>(null);
  const shownName = name ?? profile?.name ?? '';

  const { busy, run } = useSubmitOnce(async () => {
    const trimmed = shownName.trim();
    if (!trimmed) {
      toast.error('Update Failed', { description: 'Name is required' });
      return;
    }
    try {
      await save(trimmed);
      updateSessionUser({ name: trimmed });
      setName(null);
      toast.success('Profile Updated', { description: 'Your profile has been successfully updated.' });
    } catch (e) {
      toast.error('Update Failed', { description: e instanceof Error ? e.message : 'Something went wrong' });
    }
  });

  if (!profile) return <Spinner label="Loading your profile" />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <section className="profile-page narrow" aria-labelledby="profile-title">
      <h1 id="profile-title">Profile</h1>
      <p className="muted">Manage your account information.</p>
      {profile.pending ? (
        <p className="pending-note" role="status">
          Your changes are saved on this device and will sync when you are online.
        </p>
      ) : null}
      <form className="form card" onSubmit={onSubmit} aria-label="Profile">
        <TextField label="Full Name" name="name" autoComplete="name" required maxLength={MAX_PROFILE_NAME_LENGTH} value={shownName} onChange={setName} />
        <TextField
          label="Email"
          name="email"
          type="email"
          value={profile.email}
          onChange={() => {}}
          disabled
          readOnly
          hint="Email address cannot be changed."
        />
        <SubmitButton busy={busy} busyLabel="Saving...">
          Save Changes
        </SubmitButton>
      </form>
      <HandleSettings />
      <NotificationSettings />
      <MediaSettings />
      <SafetySettings />
      <ChangePasswordForm />
      <SignOutEverywhere />
    </section>
  );
}
