import { useEffect, useState } from 'react';
import styled from 'styled-components';
import type { ContentVersion } from '@campus/contracts';
import { exactTime, relativeTime } from '@campus/kit/format';
import { UserText } from '@campus/kit/text';
import { Dialog, Spinner } from '@campus/kit/ui';
import { fetchVersions } from './own-words-requests';

const List = styled.ol`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  margin: 0;
  padding: 0;
  list-style: none;

  li {
    display: grid;
    gap: ${({ theme }) => theme.space(1)};
    padding: ${({ theme }) => theme.space(3)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.md};
  }
  h3 {
    margin: 0;
    font-size: 0.8125rem;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Text = styled(UserText)`
  margin: 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

export interface VersionsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  kind: 'post' | 'comment';
  id: number;
}

/** The versions of an edited post or comment, newest first, each with when it was written. */
export function VersionsDialogPanel({ open, onOpenChange, kind, id }: VersionsDialogProps) {
  const [versions, setVersions] = useState<ContentVersion[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!open) return;
    // Read at each opening: a closed dialog is not mounted (lazyOnOpen), so it starts empty.
    let current = true;
    fetchVersions(kind, id).then(
      (found) => current && setVersions(found),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [open, kind, id]);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit history"
      description={`Every version of this ${kind}, newest first.`}
    >
      {failed ? (
        <p role="alert">Failed to load the earlier versions. Please try again.</p>
      ) : versions === null ? (
        <Spinner label="Loading versions" />
      ) : (
        <List aria-label="Versions">
          {versions.map((version, index) => (
            <li key={`${version.writtenAt}-${index}`}>
              <h3>
                {index === 0 ? 'Current' : `Version ${versions.length - index}`} ·{' '}
                <time dateTime={version.writtenAt} title={exactTime(version.writtenAt)}>
                  {relativeTime(version.writtenAt)}
                </time>
              </h3>
              <Text text={version.content} />
            </li>
          ))}
        </List>
      )}
    </Dialog>
  );
}
