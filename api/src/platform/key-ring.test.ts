import { randomBytes } from 'node:crypto';
import { previousSecretRefusals } from './key-ring';

const strong = () => randomBytes(48).toString('base64');

describe('JWT_PREVIOUS_SECRETS in production', () => {
  test('when every previous key is strong, then nothing is refused', () => {
    expect(
      previousSecretRefusals({ env: 'production', jwtPreviousSecrets: [strong(), strong()] }),
    ).toEqual([]);
  });

  test("when a previous key is weak, then it is refused by JWT_SECRET's rule, naming the key", () => {
    const refusals = previousSecretRefusals({
      env: 'Production',
      jwtPreviousSecrets: [strong(), 'a'.repeat(32)],
    });
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(
      /^JWT_PREVIOUS_SECRETS \(key 2\) has about \d+ bits of estimated entropy/,
    );
  });

  test('when the API is not in production, then previous keys are not checked', () => {
    expect(previousSecretRefusals({ env: 'test', jwtPreviousSecrets: ['weak'] })).toEqual([]);
  });
});
