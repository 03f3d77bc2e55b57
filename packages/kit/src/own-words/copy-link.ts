import { toast } from '@campus/kit/toast';

/**
 * Copies the address of a page of the app (`/post/12`) to the clipboard and says so. Where the
 * clipboard is refused (an insecure page, a denied permission), the toast shows the address to
 * copy by hand.
 */
export async function copyLink(path: string): Promise<void> {
  const url = new URL(path, window.location.origin).href;
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied', description: url });
  } catch {
    toast({ title: 'Could not copy the link', description: url, variant: 'destructive' });
  }
}
