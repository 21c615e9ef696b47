import { defineMutation } from './define-mutation';

export const updateProfileName = defineMutation({
  name: 'updateProfileName',
  args: (k) => k.z.strictObject({ name: k.name }),
  refusedTitle: 'Update Failed',
  pendingOnCard: false,
  changesProfile: true,
  sample: () => ({ name: 'Sample Name' }),
  run: async (tx, { name }) => {
    await tx.profiles.update({ id: tx.userId }, { name });
    return null;
  },
});
