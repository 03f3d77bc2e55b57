import { z } from 'zod';
import {
  allCalls,
  callPath,
  callRoutes,
  calls,
  callSignature,
  noContentResponseSchema,
  pathParamNames,
  responseSchemas,
  type Call,
  type CallBody,
  type CallParams,
  type CallQuery,
  type CallResponse,
  type LikeResponse,
} from './index';

/** Compile-time checks: `true` only when the two types are the same. */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const typed: Array<true> = [
  true satisfies Same<CallParams<typeof callRoutes.likePost>, { id: number }>,
  true satisfies Same<CallResponse<typeof callRoutes.likePost>, LikeResponse>,
  true satisfies Same<CallResponse<typeof calls.likePost>, LikeResponse>,
  true satisfies Same<CallResponse<typeof callRoutes.signOutEverywhere>, null>,
  true satisfies Same<CallBody<typeof callRoutes.uploadAvatar>, FormData>,
  true satisfies Same<CallBody<typeof callRoutes.likePost>, never>,
  true satisfies Same<CallQuery<typeof callRoutes.settings>, never>,
  true satisfies Same<keyof CallQuery<typeof callRoutes.notificationGroups>, 'before' | 'limit'>,
];

const objectKeys = (schema: unknown): string[] => {
  expect(schema).toBeInstanceOf(z.ZodObject);
  return Object.keys((schema as z.ZodObject).shape).sort();
};

describe('the call table', () => {
  test('when the compiler reads the helper types, then they answer what the table says', () => {
    expect(typed.every(Boolean)).toBe(true);
  });

  test('when an entry is read, then it is its route with its schemas, frozen, under its name', () => {
    expect(Object.keys(calls)).toEqual(Object.keys(callRoutes));
    for (const [name, call] of Object.entries(calls)) {
      expect(call.name).toBe(name);
      expect(call).toMatchObject(callRoutes[name as keyof typeof callRoutes]);
      expect(Object.isFrozen(call)).toBe(true);
      expect(name).toMatch(/^[a-z][A-Za-z]*$/);
    }
    expect(allCalls).toEqual(Object.values(calls));
    expect(Object.isFrozen(calls) && Object.isFrozen(allCalls)).toBe(true);
  });

  test('when the names are listed, then each is unique', () => {
    const names = allCalls.map((call) => call.name);
    expect(new Set(names).size).toBe(names.length);
  });

  test("when an entry's path has parameters, then its params schema has exactly those keys", () => {
    for (const call of allCalls) {
      expect({ [call.name]: objectKeys(call.params) }).toEqual({
        [call.name]: pathParamNames(call.path).sort(),
      });
    }
  });

  test('when method, path and query discriminator are put together, then no two calls share them', () => {
    const signatures = allCalls.map(callSignature);
    expect(new Set(signatures).size).toBe(signatures.length);
    expect(signatures).toContain('GET /api/notifications?grouped=true');
    expect(Object.keys(responseSchemas).sort()).toEqual([...signatures].sort());
  });

  test('when a call has a discriminator, then it is one query parameter its query requires, and the call beside it refuses it', () => {
    const discriminated = allCalls.filter((call) => call.discriminator);
    expect(discriminated.map((call) => call.name)).toEqual(['notificationGroups']);
    for (const call of discriminated) {
      const entries = Object.entries(call.discriminator ?? {});
      expect(entries).toHaveLength(1);
      const query = Object.fromEntries(entries);
      expect(call.query?.safeParse(query).success).toBe(true);
      expect(call.query?.safeParse({}).success).toBe(false);
      const siblings = allCalls.filter(
        (other) => other !== call && other.method === call.method && other.path === call.path,
      );
      expect(siblings.length).toBeGreaterThan(0);
      for (const sibling of siblings) {
        expect(sibling.discriminator).toBeUndefined();
        expect(sibling.query?.safeParse(query).success).toBe(false);
        expect(sibling.query?.safeParse({}).success).toBe(true);
      }
    }
  });

  test('when a router registers the calls in order, then no parameter shadows a literal path', () => {
    const pattern = (path: string) =>
      new RegExp(`^${path.replace(/:[A-Za-z_]\w*/g, '[^/]+')}$`, 'i');
    allCalls.forEach((call, index) => {
      for (const earlier of allCalls.slice(0, index)) {
        if (earlier.method !== call.method || earlier.path === call.path) continue;
        expect({ [call.path]: pattern(earlier.path).test(call.path) }).toEqual({
          [call.path]: false,
        });
      }
    });
  });

  test('when a call answers 204, then its response is the empty body, and only then', () => {
    for (const call of allCalls) {
      expect({ [call.name]: call.response === noContentResponseSchema }).toEqual({
        [call.name]: call.status === 204,
      });
    }
  });

  test('when a request carries a field its body does not know, then the body refuses it', () => {
    const bodies = allCalls.filter(
      (call): call is Call & { body: z.ZodType } => call.body instanceof z.ZodType,
    );
    expect(bodies.length).toBeGreaterThan(20);
    for (const call of bodies) {
      const result = call.body.safeParse({ id: 1, isAdmin: true, token: 'x' });
      expect({ [call.name]: result.success }).toEqual({ [call.name]: false });
    }
    expect(calls.uploadAvatar.body).toEqual({ multipart: true, field: 'avatar' });
  });

  test('when path parameters arrive as text, then the params schema reads ids as numbers', () => {
    expect(calls.likePost.params.parse({ id: '12' })).toEqual({ id: 12 });
    expect(calls.likePost.params.safeParse({ id: 'abc' }).success).toBe(false);
    expect(calls.verifyEmail.params.parse({ token: 'a.b' })).toEqual({ token: 'a.b' });
    expect(calls.settings.params.parse({})).toEqual({});
  });
});

describe('callPath', () => {
  test('when given an entry and its params, then it builds the concrete path', () => {
    expect(callPath(callRoutes.likePost, { id: 12 })).toBe('/api/posts/12/like');
    expect(callPath(calls.following, { id: 7 })).toBe('/api/users/7/following');
    expect(callPath(callRoutes.settings, {})).toBe('/api/settings');
  });

  test('when a parameter holds reserved characters, then it is URI-encoded', () => {
    expect(callPath(callRoutes.verifyEmail, { token: 'a/b?c=d#e f' })).toBe(
      '/api/auth/verify/a%2Fb%3Fc%3Dd%23e%20f',
    );
  });

  test('when a parameter is missing or empty, then it throws instead of building another path', () => {
    expect(() => callPath(callRoutes.invitation, { token: '' })).toThrow(
      'invitation: no value for the path parameter :token',
    );
    expect(() => callPath(callRoutes.post, {} as { id: number })).toThrow(/:id/);
  });
});
