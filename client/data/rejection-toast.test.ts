import { describe, expect, it } from 'vitest';
import { rejectionToast } from './rejection-toast';

const error = { code: 'not_found', message: 'This video no longer exists.' };

describe('rejectionToast', () => {
  it('uses the spec titles with the server reason', () => {
    expect(rejectionToast({ name: 'addComment', args: {}, error })).toEqual({ title: 'Comment Failed', description: error.message });
    expect(rejectionToast({ name: 'deleteVideo', args: {}, error })).toEqual({ title: 'Delete Failed', description: error.message });
    expect(rejectionToast({ name: 'updateProfileName', args: {}, error })).toEqual({ title: 'Update Failed', description: error.message });
  });
  it('stays quiet for likes, shares and views', () => {
    for (const name of ['like', 'unlike', 'recordShare', 'recordView']) expect(rejectionToast({ name, args: {}, error })).toBeNull();
  });
});
