import { Schema, type Connection, type Model } from 'mongoose';

export interface AccountApplicationDoc {
  _id: number;
  name: string;
  contactInfo: string;
  message: string;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: Date;
}

const accountApplicationSchema = new Schema<AccountApplicationDoc>(
  {
    _id: { type: Number, required: true },
    name: { type: String, required: true },
    contactInfo: { type: String, required: true },
    message: { type: String, required: true },
    status: { type: String, enum: ['pending', 'approved', 'rejected'], default: 'pending' },
    createdAt: { type: Date, default: () => new Date(), immutable: true, index: true },
  },
  { versionKey: false },
);

export type AccountApplicationModel = Model<AccountApplicationDoc>;

/** The AccountApplication model on `connection` (each app binds its own: see src/models.ts). */
export function accountApplicationModel(connection: Connection): AccountApplicationModel {
  return connection.model<AccountApplicationDoc>(
    'AccountApplication',
    accountApplicationSchema,
    'account_applications',
  );
}
