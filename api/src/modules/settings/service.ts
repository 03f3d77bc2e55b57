import { LOCAL_LOGO, type Settings } from '@campus/contracts';
import { nextId } from '../counters/service';
import { AppSetting } from './model';

export async function getSettings(): Promise<Settings> {
  const logo = await AppSetting.findOne({ key: 'logo_url' }).lean();
  return { logo_url: logo?.value ?? LOCAL_LOGO };
}

export async function setSetting(key: string, value: string): Promise<void> {
  const existing = await AppSetting.findOne({ key }).lean();
  if (existing) {
    await AppSetting.updateOne({ _id: existing._id }, { $set: { value } });
  } else {
    await AppSetting.create({ _id: await nextId('app_settings'), key, value });
  }
}
