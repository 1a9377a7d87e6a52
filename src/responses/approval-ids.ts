// Approval request ids that carry an HMAC of what was asked, so a client cannot forge or alter an approval request it sends back.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What an approval request binds: who asked, which server, which tool, with which arguments. */
export interface ApprovalSubject {
  application: string;
  /** The server the tool runs on: `registry:<name>` or the external URL. */
  target: string;
  server_label: string;
  name: string;
  arguments: string;
}

const PREFIX = 'mcpr_';

/**
 * Signs and checks `mcpr_<nonce><mac>` ids. The key comes from the gateway secret (GATEWAY_SECRET);
 * without one, a random key per process is used, so ids then stop verifying after a restart.
 */
export class ApprovalIds {
  private readonly key: Buffer;

  constructor(secret: string | undefined) {
    this.key = secret ? createHmac('sha256', 'gateway-responses-approval-ids').update(secret).digest() : randomBytes(32);
  }

  private mac(nonce: string, subject: ApprovalSubject): Buffer {
    const fields = [nonce, subject.application, subject.target, subject.server_label, subject.name, subject.arguments];
    return createHmac('sha256', this.key).update(JSON.stringify(fields)).digest().subarray(0, 16);
  }

  /** A new id bound to the subject. */
  issue(subject: ApprovalSubject): string {
    const nonce = randomBytes(12).toString('hex');
    return `${PREFIX}${nonce}${this.mac(nonce, subject).toString('hex')}`;
  }

  /** True when the id was issued by this gateway for exactly this subject. */
  verify(id: string, subject: ApprovalSubject): boolean {
    const match = /^mcpr_([0-9a-f]{24})([0-9a-f]{32})$/.exec(id);
    if (!match) return false;
    return timingSafeEqual(Buffer.from(match[2]!, 'hex'), this.mac(match[1]!, subject));
  }
}
