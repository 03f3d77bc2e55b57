import {
  adminFeedbackUpdateSchema,
  adminPageQuerySchema,
  adminUsersQuerySchema,
  rejectApplicationRequestSchema,
  suspendUserRequestSchema,
} from './admin';
import { reportRequestSchema, resolveReportRequestSchema } from './reports';
import { registerRequestSchema } from './auth';

function message(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? undefined : result.error?.issues[0]?.message;
}

describe('admin paging', () => {
  test('when no page is given, then page 1 of 20; query strings are read as numbers', () => {
    expect(adminPageQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20 });
    expect(adminPageQuerySchema.parse({ page: '3', pageSize: '50' })).toEqual({
      page: 3,
      pageSize: 50,
    });
  });

  test.each([
    [{ page: '0' }, 'Page must be at least 1'],
    [{ pageSize: '101' }, 'Page size must be at most 100'],
    [{ page: 'x' }, 'Page must be a number'],
  ])('when the query is %j, then it is refused with %s', (query, expected) => {
    expect(message(adminPageQuerySchema.safeParse(query))).toBe(expected);
  });

  test('when the member status is unknown, then it names the statuses', () => {
    expect(message(adminUsersQuerySchema.safeParse({ status: 'banned' }))).toBe(
      'Status must be one of active, suspended, unverified',
    );
  });
});

describe('admin payloads', () => {
  test('when feedback is updated, then the status is one of three and the reply is trimmed', () => {
    expect(adminFeedbackUpdateSchema.parse({ status: 'resolved', reply: '  Thanks ' })).toEqual({
      status: 'resolved',
      reply: 'Thanks',
    });
    expect(message(adminFeedbackUpdateSchema.safeParse({ status: 'reviewed' }))).toBe(
      'Status must be one of pending, in_progress, resolved',
    );
    expect(message(adminFeedbackUpdateSchema.safeParse({ status: 'resolved', reply: ' ' }))).toBe(
      'Reply is required',
    );
  });

  test('when a suspension has no reason, then it is refused; a rejection may have none', () => {
    expect(message(suspendUserRequestSchema.safeParse({ reason: '  ' }))).toBe(
      'Reason is required',
    );
    expect(rejectApplicationRequestSchema.parse({})).toEqual({});
  });

  test('when a report names an unknown target type, or neither a category nor words, then it is refused', () => {
    expect(
      message(reportRequestSchema.safeParse({ targetType: 'group', targetId: 1, reason: 'spam' })),
    ).toBe('Target type must be one of post, comment, user');
    expect(
      message(reportRequestSchema.safeParse({ targetType: 'post', targetId: 1, reason: '' })),
    ).toBe('Choose what is wrong');
    expect(
      reportRequestSchema.parse({ targetType: 'post', targetId: 1, category: 'hate', reason: ' ' }),
    ).toEqual({ targetType: 'post', targetId: 1, category: 'hate' });
    expect(message(resolveReportRequestSchema.safeParse({ action: 'ban' }))).toBe(
      'Action must be one of remove, dismiss',
    );
  });

  test('when registering with an invitation, then the token is part of the payload', () => {
    expect(
      registerRequestSchema.parse({
        name: 'Ada',
        email: 'ada@example.org',
        password: 'long enough',
        invitationToken: 'abc',
      }).invitationToken,
    ).toBe('abc');
  });
});
