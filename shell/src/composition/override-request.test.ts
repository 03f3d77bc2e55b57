import { OVERRIDE_PARAM, OVERRIDES_STORAGE_KEY, overridesRequested } from './override-request';

describe('overridesRequested', () => {
  beforeEach(() => window.localStorage.clear());

  it('is false without the query parameter and without stored overrides (nothing more is fetched)', () => {
    expect(overridesRequested({ search: '?tab=following', storage: window.localStorage })).toBe(
      false,
    );
  });

  it('is true for the query parameter, even a malformed one (it is refused with a reason later)', () => {
    expect(
      overridesRequested({ search: `?${OVERRIDE_PARAM}=nonsense`, storage: window.localStorage }),
    ).toBe(true);
  });

  it('is true when this browser keeps overrides (they are checked again at every load)', () => {
    window.localStorage.setItem(
      OVERRIDES_STORAGE_KEY,
      '{"mf_feed":"https://preview.example/m.json"}',
    );
    expect(overridesRequested({ search: '', storage: window.localStorage })).toBe(true);
  });
});
