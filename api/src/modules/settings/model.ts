import { Schema, type Connection, type Model } from 'mongoose';

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

export type AppSettingModel = Model<AppSettingDoc>;

/** The AppSetting model on `connection` (each app binds its own: see src/models.ts). */
export function appSettingModel(connection: Connection): AppSettingModel {
  return connection.model<AppSettingDoc>('AppSetting', appSettingSchema, 'app_settings');
}

/** This module's AppSetting model from the app context: only the settings module reads it (lint). */
export const settingsOf = (ctx: { models: { AppSetting: AppSettingModel } }): AppSettingModel =>
  ctx.models.AppSetting;
