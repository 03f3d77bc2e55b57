import { emailInContactInfo } from './applications';

describe('the e-mail address in an application’s contact information', () => {
  test.each([
    ['grace@example.org', 'grace@example.org'],
    ['Mail me at Grace.Hopper@Example.ORG or call', 'grace.hopper@example.org'],
    ['LinkedIn: linkedin.com/in/grace, grace+campus@mail.co.uk', 'grace+campus@mail.co.uk'],
  ])('when it is %j, then the address is %j (lowercased)', (contact, email) => {
    expect(emailInContactInfo(contact)).toBe(email);
  });

  test.each(['+44 20 7946 0000', 'grace at example dot org', '@grace on Mastodon', 'a@b'])(
    'when it is %j, then there is no address (the link is only answered)',
    (contact) => {
      expect(emailInContactInfo(contact)).toBeNull();
    },
  );
});
