import type { Mail } from '../../platform/mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function verificationEmail(name: string, to: string, link: string): Mail {
  const text = [
    `Hi ${name},`,
    '',
    'Welcome to Campus! Please confirm your e-mail address to activate your account:',
    link,
    '',
    'If you did not create this account, you can ignore this message.',
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(name)},</p>
<p>Welcome to Campus! Please confirm your e-mail address to activate your account:</p>
<p><a href="${escapeHtml(link)}">Verify my e-mail address</a></p>
<p>If you did not create this account, you can ignore this message.</p>`;
  return { to, subject: 'Verify your Campus account', text, html, links: { verification: link } };
}
