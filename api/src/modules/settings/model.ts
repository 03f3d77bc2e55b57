import { model, Schema } from 'mongoose';

export interface AppSettingDoc {
  _id: number;
  key: string;
  value: string;
  updatedAt: Date;
}

const appSettingSchema = new Schema<AppSettingDoc>(
  {
    _id: { type: Number, required: true },
    key: { type: String, required: true, unique: true },
    value: { type: String, required: true },
  },
  { versionKey: false, timestamps: { createdAt: false, updatedAt: true } },
);

export const AppSetting = model<AppSettingDoc>('AppSetting', appSettingSchema, 'app_settings');
