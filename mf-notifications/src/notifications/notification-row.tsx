import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { NotificationGroup } from '@campus/contracts';
import { relativeTime } from '@campus/kit/format';
import { mediaMobile } from '@campus/kit/theme';
import { Avatar } from '@campus/kit/ui';
import { AppealButton } from './appeal-button';
import { groupActors, groupTarget } from './notification-target';
import { notificationText } from './notification-text';

const Item = styled.li<{ $unread: boolean }>`
  position: relative;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme, $unread }) => ($unread ? theme.colors.highlight : theme.colors.surface)};

  > a,
  > button {
    display: flex;
    gap: ${({ theme }) => theme.space(3)};
    width: 100%;
    padding: ${({ theme }) => theme.space(4)};
    border: 0;
    background: none;
    color: inherit;
    font: inherit;
    text-align: left;
    text-decoration: none;
    cursor: pointer;
  }
  > button[data-inert='true'] {
    cursor: default;
  }
  p {
    margin: 0;
  }
  small,
  blockquote {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  blockquote {
    margin: ${({ theme }) => theme.space(1)} 0;
    font-size: 0.875rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

const Faces = styled.span`
  display: flex;
  flex: none;
  align-self: flex-start;

  /* Issue 41: a 14 px overlap hid the second initial of the face below; 6 px leaves it whole. */
  > * + * {
    margin-left: -6px;
  }
  > * {
    box-shadow: 0 0 0 2px ${({ theme }) => theme.colors.surface};
  }
`;

const UnreadDot = styled.span`
  flex: none;
  align-self: center;
  width: 8px;
  height: 8px;
  margin-left: auto;
  border-radius: 50%;
  background: ${({ theme }) => theme.colors.primary};
`;

const PostLink = styled.p`
  padding: 0 ${({ theme }) => theme.space(4)} ${({ theme }) => theme.space(3)} 68px;
  font-size: 0.8125rem;

  /* A 44 px touch target on phones (issue 41), its words where they were. */
  ${mediaMobile} {
    padding-bottom: ${({ theme }) => theme.space(1)};
    a {
      display: inline-flex;
      align-items: center;
      min-width: 44px;
      min-height: 44px;
      margin-top: -${({ theme }) => theme.space(2)};
    }
  }
`;

/**
 * One row: a notification or a group of them ('Ada Okafor and 3 others liked your post', with up
 * to three avatars). Choosing it opens what it is about and marks the whole group read; a row
 * with nowhere to go (a reply to feedback, a removal) only marks it read.
 */
export function NotificationRow({
  group,
  viewerId,
  onOpen,
}: {
  group: NotificationGroup;
  viewerId?: number;
  onOpen: (group: NotificationGroup) => void;
}) {
  const { who: single, action, preview, postId, detail } = notificationText(group.latest);
  const { latest } = group;
  // A removal names its decision (issue 38): the member may appeal it from here.
  const appealable =
    latest.type === 'content_removed' && latest.decisionId !== null
      ? {
          decisionId: latest.decisionId,
          what: latest.targetType,
          appealed: latest.appealed === true,
        }
      : null;
  const who = groupActors(group, single);
  const target = groupTarget(group, viewerId);
  const unread = !group.isRead;
  const previewId = `notification-${group.key}-preview`;
  const label = `${who} ${action}${unread ? ' (unread)' : ''}`;
  const faces = group.actors.length > 0 ? group.actors : [{ id: 0, name: who, avatarUrl: null }];

  const content: ReactNode = (
    <>
      <Faces aria-hidden="true">
        {faces.map((actor) => (
          <Avatar
            key={actor.id}
            name={actor.name}
            src={actor.avatarUrl}
            size={faces.length > 1 ? 32 : 40}
          />
        ))}
      </Faces>
      <div>
        <p>
          <strong>{who}</strong> {action}
        </p>
        {preview && <blockquote id={previewId}>{preview}</blockquote>}
        {detail && <p>{detail}</p>}
        <small>
          <time dateTime={group.createdAt}>{relativeTime(group.createdAt)}</time>
        </small>
      </div>
      {unread && <UnreadDot aria-hidden="true" data-testid="unread-marker" />}
    </>
  );
  const shared = {
    'aria-label': label,
    'aria-describedby': preview ? previewId : undefined,
    onClick: () => onOpen(group),
  };

  return (
    <Item $unread={unread} data-unread={unread} data-type={group.type} data-group={group.key}>
      {target ? (
        <Link to={target} {...shared}>
          {content}
        </Link>
      ) : (
        <button type="button" data-inert={!unread} {...shared}>
          {content}
        </button>
      )}
      {appealable && <AppealButton {...appealable} />}
      {postId !== undefined && (
        <PostLink>
          <Link to={`/post/${postId}`} onClick={() => onOpen(group)}>
            View post
          </Link>
        </PostLink>
      )}
    </Item>
  );
}
