import type { ComponentType } from 'react';
import type { FeedItem } from '#sync/protocol/messages';

/**
 * The player the app hands to a screen that lists videos (the feed's card in a dialog,
 * client/features/feed/components/VideoDialog.tsx): features never import each other.
 */
export type VideoDialogComponent = ComponentType<{ video: FeedItem | null; onClose(): void }>;
