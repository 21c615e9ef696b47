import { describe, expect, it } from 'vitest';
import { UPLOAD_PROBLEMS } from './upload-copy';

describe("the upload checks' words", () => {
  it('are the product copy, verbatim', () => {
    expect(UPLOAD_PROBLEMS.too_large).toEqual({ title: 'File too large', description: 'Please select a video under 120MB (approximately 2 minutes)' });
    expect(UPLOAD_PROBLEMS.invalid_type).toEqual({ title: 'Invalid file type', description: 'Please select a video file' });
    expect(UPLOAD_PROBLEMS.missing_info).toEqual({ title: 'Missing information', description: 'Please provide a title and select a video file' });
  });
});
