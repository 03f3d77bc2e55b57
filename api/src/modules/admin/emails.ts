import type { Mail } from '../../platform/mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The invitation an approved applicant receives (`links.invitation` in the outbox). */
export function invitationEmail(name: string, to: string, link: string, days: number): Mail {
  const text = [
    `Hi ${name},`,
    '',
    'Your application to join Campus has been approved. Create your account with this link:',
    link,
    '',
    `The link works once and for ${days} days.`,
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(name)},</p>
<p>Your application to join Campus has been approved. Create your account with this link:</p>
<p><a href="${escapeHtml(link)}">Create my Campus account</a></p>
<p>The link works once and for ${days} days.</p>`;
  return {
    to,
    subject: 'Your Campus invitation',
    text,
    html,
    links: { invitation: link },
  };
}

/** The answer to a rejected application, with the reason when one was given. */
export function rejectionEmail(name: string, to: string, reason: string | null): Mail {
  const lines = [
    `Hi ${name},`,
    '',
    'Thank you for applying to join Campus. Unfortunately we cannot approve your application.',
  ];
  if (reason) lines.push('', `Reason: ${reason}`);
  const html = `<p>Hi ${escapeHtml(name)},</p>
<p>Thank you for applying to join Campus. Unfortunately we cannot approve your application.</p>${
    reason ? `\n<p>Reason: ${escapeHtml(reason)}</p>` : ''
  }`;
  return { to, subject: 'Your Campus application', text: lines.join('\n'), html, links: {} };
}
