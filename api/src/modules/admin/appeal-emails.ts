import type { Mail } from '../../platform/mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What a suspended member is told of their appeal (issue 38): they cannot read notifications. */
export function appealDecidedEmail(
  name: string,
  to: string,
  outcome: 'lifted' | 'upheld',
  response: string | null,
  webUrl: string,
): Mail {
  const verdict =
    outcome === 'lifted'
      ? 'We reviewed your appeal and lifted the suspension of your Campus account. You can sign in again.'
      : 'We reviewed your appeal and upheld the suspension of your Campus account.';
  const lines = [`Hi ${name},`, '', verdict];
  if (response) lines.push('', `From the Campus team: ${response}`);
  if (outcome === 'lifted') lines.push('', webUrl);
  const html = `<p>Hi ${escapeHtml(name)},</p>
<p>${escapeHtml(verdict)}</p>${response ? `\n<p>From the Campus team: ${escapeHtml(response)}</p>` : ''}${
    outcome === 'lifted' ? `\n<p><a href="${escapeHtml(webUrl)}">Sign in to Campus</a></p>` : ''
  }`;
  return {
    to,
    subject: outcome === 'lifted' ? 'Your Campus account is active again' : 'Your Campus appeal',
    text: lines.join('\n'),
    html,
    links: outcome === 'lifted' ? { signIn: webUrl } : {},
  };
}
