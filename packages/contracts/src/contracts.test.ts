import {
  authMeResponseSchema,
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  emailOnlyRequestSchema,
  extractTags,
  MAX_TAGS_PER_TEXT,
  tagPathParamsSchema,
  tagsInText,
  AVATAR_URL_MESSAGE,
  accountApplicationRequestSchema,
  avatarUrlSchema,
  FEED_MAX_OFFSET,
  FEED_TABS,
  feedQuerySchema,
  isInstitutionalEmail,
  loginRequestSchema,
  NOTIFICATION_TYPES,
  notificationSchema,
  profileUpdateSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  type Notification,
  type NotificationType,
  uploadPathOf,
} from './index';

describe('isInstitutionalEmail', () => {
  const domains = ['campus.edu', 'mail.campus.edu', 'cu.edu'];

  test('when the domain is exactly one of the list (any case), then it is institutional', () => {
    expect(isInstitutionalEmail('a@campus.edu', domains)).toBe(true);
    expect(isInstitutionalEmail('a@MAIL.Campus.edu', domains)).toBe(true);
    expect(isInstitutionalEmail('a@cu.edu', domains)).toBe(true);
  });

  test('when the domain only looks similar, then it is not', () => {
    for (const email of [
      'a@evilcampus.edu',
      'a@campus.edu.evil.com',
      'campus.edu@gmail.com',
      '@campus.edu',
      'a@x.cu.edu',
    ]) {
      expect(isInstitutionalEmail(email, domains)).toBe(false);
    }
  });
});

describe('avatarUrlSchema', () => {
  const name = '0123456789abcdef0123456789abcdef.webp';

  test('when the URL is an API upload (its path, or absolute as the upload route gives it) or empty, then it is accepted', () => {
    for (const url of [
      `/uploads/${name}`,
      `http://localhost:4000/uploads/${name}`,
      `https://api.campus.example/uploads/${name}`,
      '',
    ]) {
      expect(avatarUrlSchema.safeParse(url).success).toBe(true);
    }
    expect(uploadPathOf(`https://api.campus.example/uploads/${name}`)).toBe(`/uploads/${name}`);
  });

  test('when the URL points anywhere else, then it is refused with one message', () => {
    for (const url of [
      'https://x.org/a.png',
      'http://localhost:4000/uploads/a.webp',
      `https://tracker.example/pixel.gif?u=/uploads/${name}`,
      `https://x.org/uploads/${name}?track=1`,
      `https://x.org/uploads/${name}#x`,
      `https://user:pass@x.org/uploads/${name}`,
      `https://x.org/a/../uploads/${name}`,
      `https://x.org/uploads/%30123456789abcdef0123456789abcdef.webp`,
      `ftp://x.org/uploads/${name}`,
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      'file:///etc/passwd',
      'blob:https://x.org/1',
      '/uploads/../secret',
      `//x.org/uploads/${name}`,
    ]) {
      const result = avatarUrlSchema.safeParse(url);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(AVATAR_URL_MESSAGE);
    }
  });
});

describe('names and bios', () => {
  const hostile = {
    NUL: 'Ada\u0000Admin',
    'a C1 control': 'Ada\u0085',
    escape: 'Ada\u001b[31m',
    'right-to-left override': 'Ada \u202Enimda',
    'left-to-right isolate': 'Ada \u2066x\u2069',
    'right-to-left mark': 'Ada\u200F',
    'zero-width space': 'Ad\u200Ba',
    'zero-width non-joiner': 'Ad\u200Ca',
    'zero-width joiner between letters': 'Ad\u200Da',
    'word joiner': 'Ad\u2060a',
    'byte-order mark inside': 'Ad\uFEFFa',
  };

  test.each(Object.entries(hostile))(
    'when a name carries a %s, then registration, profile and application refuse it with a clear message',
    (_, name) => {
      expect(
        registerRequestSchema.safeParse({ name, email: 'a@campus.edu', password: 'password1' })
          .error?.issues[0]?.message,
      ).toBe('Name cannot contain control, invisible or text-direction characters');
      expect(profileUpdateSchema.safeParse({ name }).error?.issues[0]?.message).toBe(
        'Name cannot contain control, invisible or text-direction characters',
      );
      expect(
        accountApplicationRequestSchema.safeParse({ name, contactInfo: 'x', message: 'x' }).error
          ?.issues[0]?.message,
      ).toBe('Full name cannot contain control, invisible or text-direction characters');
    },
  );

  test.each(Object.entries(hostile))('when a bio carries a %s, then it is refused', (_, bio) => {
    expect(profileUpdateSchema.safeParse({ name: 'Ada', bio }).error?.issues[0]?.message).toBe(
      'Bio cannot contain control, invisible or text-direction characters',
    );
  });

  test('when a name is on several lines, then it is refused; a bio may have line breaks', () => {
    expect(profileUpdateSchema.safeParse({ name: 'Ada\nAdmin' }).success).toBe(false);
    expect(
      profileUpdateSchema.safeParse({ name: 'Ada', bio: 'Line one\r\nLine two' }).success,
    ).toBe(true);
  });

  test('when names use other scripts, accents or emoji (joined ones included), then they are accepted', () => {
    for (const name of ['Zoë Ødegård', 'محمد علي', 'שרה כהן', '李小龙', 'Ada 👩‍💻', 'Ben 👨‍👩‍👧']) {
      expect(profileUpdateSchema.safeParse({ name, bio: `Hi from ${name}` }).success).toBe(true);
    }
  });
});

describe('request schemas', () => {
  test('when a registration is parsed, then the name and e-mail are normalised and the password is left as typed', () => {
    expect(
      registerRequestSchema.parse({
        name: ' Ada ',
        email: ' Ada@Campus.EDU ',
        password: ' spaced  ',
      }),
    ).toEqual({
      name: 'Ada',
      email: 'ada@campus.edu',
      password: ' spaced  ',
    });
  });

  test('when unknown fields are sent, then the payload is refused', () => {
    expect(
      loginRequestSchema.safeParse({ email: 'a@campus.edu', password: 'x', admin: true }).success,
    ).toBe(false);
    expect(profileUpdateSchema.safeParse({ name: 'a', isVerified: true }).success).toBe(false);
  });

  test('when the profile form breaks a rule, then the spec message is given', () => {
    const message = (input: unknown) =>
      profileUpdateSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ name: '' })).toBe('Name is required');
    expect(message({ name: 'x'.repeat(101) })).toBe('Name must be less than 100 characters');
    expect(message({ name: 'x', bio: 'x'.repeat(501) })).toBe(
      'Bio must be less than 500 characters',
    );
  });
});

describe('feedQuerySchema', () => {
  test('when no tab is given, then it is the For You tab, and every listed tab is accepted', () => {
    expect(feedQuerySchema.parse({}).tab).toBe('for-you');
    for (const tab of FEED_TABS) expect(feedQuerySchema.parse({ tab }).tab).toBe(tab);
  });

  test('when the tab is not one of the list, then the query is refused', () => {
    expect(feedQuerySchema.safeParse({ tab: 'trending' }).success).toBe(false);
  });

  test('when the offset is beyond 1000, then the query is refused with a clear message', () => {
    expect(feedQuerySchema.parse({ offset: '1000' }).offset).toBe(FEED_MAX_OFFSET);
    expect(feedQuerySchema.safeParse({ offset: '1001' }).error?.issues[0]?.message).toBe(
      'The feed can only be paged 1000 posts back (offset must be at most 1000)',
    );
    expect(feedQuerySchema.safeParse({ offset: '1000000' }).success).toBe(false);
  });
});

describe('authMeResponseSchema', () => {
  const user = {
    id: 107,
    name: 'Admin',
    email: 'admin@campus.edu',
    avatarUrl: null,
    bio: '',
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  test('when the roles are member and admin, then it parses', () => {
    expect(authMeResponseSchema.parse({ user, roles: ['member', 'admin'] }).roles).toEqual([
      'member',
      'admin',
    ]);
  });

  test('when a role is unknown, then it is refused', () => {
    expect(authMeResponseSchema.safeParse({ user, roles: ['root'] }).success).toBe(false);
  });
});

describe('notificationSchema', () => {
  const base = { id: 1, isRead: false, createdAt: '2026-01-01T00:00:00.000Z' };
  const actor = { id: 2, name: 'Ada', avatarUrl: null };

  test('when the union is built, then it has one member per notification type', () => {
    const types = notificationSchema.options.map((option) => option.shape.type.value);
    expect(types).toEqual([...NOTIFICATION_TYPES]);
    // Compile-time: the union's types are exactly NOTIFICATION_TYPES.
    const same: [Notification['type']] extends [NotificationType]
      ? [NotificationType] extends [Notification['type']]
        ? true
        : false
      : false = true;
    expect(same).toBe(true);
  });

  test('when a response of the previous shape (every field, null where unused) is parsed, then it is valid and keeps only the fields of its type', () => {
    const old = {
      ...base,
      type: 'follow',
      actor,
      post: null,
      feedback: null,
      application: null,
    };
    expect(notificationSchema.parse(old)).toEqual({ ...base, type: 'follow', actor });
    const application = {
      ...base,
      type: 'account_application',
      actor: null,
      post: null,
      feedback: null,
      application: { name: 'Grace', contactInfo: 'g@x.org', message: 'Alumna' },
    };
    expect(notificationSchema.safeParse(application).success).toBe(true);
  });

  test('when a type misses its own field or has the wrong actor, then it is refused', () => {
    expect(notificationSchema.safeParse({ ...base, type: 'like', actor }).success).toBe(false);
    expect(
      notificationSchema.safeParse({
        ...base,
        type: 'account_application',
        actor,
        application: null,
      }).success,
    ).toBe(false);
  });

  test('when the type is unknown, then the union refuses it (clients fall back to a default)', () => {
    expect(notificationSchema.safeParse({ ...base, type: 'poke', actor }).success).toBe(false);
  });

  test('when a switch covers every type, then each case sees exactly its fields', () => {
    const describe = (n: Notification): string => {
      switch (n.type) {
        case 'like':
        case 'comment':
        case 'reply':
        case 'repost':
          return n.post?.content ?? '';
        case 'mention':
          return n.commentText ?? n.post?.content ?? '';
        case 'follow':
          return n.actor?.name ?? '';
        case 'feedback':
          return n.feedback?.message ?? '';
        case 'account_application':
          return n.application?.name ?? '';
        case 'feedback_reply':
          return n.reply;
        case 'content_removed':
          return n.content;
        case 'appeal_decided':
          return n.outcome;
        default: {
          const unknown: never = n;
          return unknown;
        }
      }
    };
    expect(describe({ ...base, type: 'like', actor, post: { id: 3, content: 'hi' } })).toBe('hi');
  });
});

describe('account lifecycle payloads', () => {
  test('when a new password is outside 8–128 characters, then reset and change refuse it', () => {
    for (const password of ['short', 'x'.repeat(129)]) {
      expect(resetPasswordRequestSchema.safeParse({ token: 't', password }).success).toBe(false);
      expect(
        changePasswordRequestSchema.safeParse({ currentPassword: 'old', newPassword: password })
          .success,
      ).toBe(false);
    }
    expect(
      resetPasswordRequestSchema.safeParse({ token: 't', password: 'long enough' }).success,
    ).toBe(true);
  });

  test('when a field is an operator object, a wrong type or unknown, then the payload is refused', () => {
    expect(emailOnlyRequestSchema.safeParse({ email: { $ne: null } }).success).toBe(false);
    expect(emailOnlyRequestSchema.safeParse({ email: 'a@campus.edu', admin: true }).success).toBe(
      false,
    );
    expect(
      resetPasswordRequestSchema.safeParse({ token: { $gt: '' }, password: 'long enough' }).success,
    ).toBe(false);
    expect(deleteAccountRequestSchema.safeParse({ password: 12345678 }).success).toBe(false);
    expect(deleteAccountRequestSchema.safeParse({}).success).toBe(false);
  });

  test('when an e-mail is given in any case with spaces, then it is normalised', () => {
    expect(emailOnlyRequestSchema.parse({ email: '  Ada@Campus.EDU ' })).toEqual({
      email: 'ada@campus.edu',
    });
  });
});

describe('tags and mentions in text (issue 40)', () => {
  test('when a text has tags in several scripts, then each is found normalized, once', () => {
    expect(extractTags('Hi #Café and #cafe, #مَدرسة #日本語 #2026 a#b ##x &#39; #_x #ok')).toEqual([
      'cafe',
      'مدرسة',
      '日本語',
      '_x',
      'ok',
    ]);
  });

  test('when a text has more than ten distinct tags, then only the first ten count', () => {
    const text = Array.from({ length: 12 }, (_, i) => `#t${i}`).join(' ') + ' #t0';
    const found = tagsInText(text);
    expect(new Set(found.map((t) => t.tag)).size).toBe(MAX_TAGS_PER_TEXT);
    expect(found.at(-1)).toMatchObject({ tag: 't0', end: text.length });
    expect(text.slice(found[1]!.start, found[1]!.end)).toBe('#t1');
  });

  test('when a tag is longer than 64 characters, then it is plain text', () => {
    expect(extractTags(`#${'a'.repeat(64)} #${'b'.repeat(65)}`)).toEqual(['a'.repeat(64)]);
  });

  test('when a tag path is not a tag, then the params refuse it; otherwise it is normalized', () => {
    expect(tagPathParamsSchema.safeParse({ tag: 'a b' }).success).toBe(false);
    expect(tagPathParamsSchema.safeParse({ tag: '123' }).success).toBe(false);
    expect(tagPathParamsSchema.parse({ tag: 'Écoles' })).toEqual({ tag: 'ecoles' });
  });
});
