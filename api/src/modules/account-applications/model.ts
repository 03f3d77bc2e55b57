import { model, Schema } from 'mongoose';

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

export const AccountApplication = model<AccountApplicationDoc>(
  'AccountApplication',
  accountApplicationSchema,
  'account_applications',
);
