import type { Mail } from '../../platform/mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function passwordResetEmail(name: string, to: string, link: string): Mail {
  const text = [
    `Hi ${name},`,
    '',
    'Someone (hopefully you) asked to reset the password of your Campus account. Choose a new one here:',
    link,
    '',
    'The link works once, within 1 hour. If you did not ask for it, ignore this message: your password stays as it is.',
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(name)},</p>
<p>Someone (hopefully you) asked to reset the password of your Campus account. Choose a new one here:</p>
<p><a href="${escapeHtml(link)}">Reset my password</a></p>
<p>The link works once, within 1 hour. If you did not ask for it, ignore this message: your password stays as it is.</p>`;
  return { to, subject: 'Reset your Campus password', text, html, links: { reset: link } };
}
