import { LOCAL_LOGO, type Settings } from '@campus/contracts';
import type { CounterService } from '../counters/service';
import type { AppSettingModel } from './model';

export interface SettingServiceDeps {
  models: { AppSetting: AppSettingModel };
  counters: CounterService;
}

export function createSettingService({ models: { AppSetting }, counters }: SettingServiceDeps) {
  const { nextId } = counters;

  async function getSettings(): Promise<Settings> {
    const logo = await AppSetting.findOne({ key: 'logo_url' }).lean();
    return { logo_url: logo?.value ?? LOCAL_LOGO };
  }

  async function setSetting(key: string, value: string): Promise<void> {
    const existing = await AppSetting.findOne({ key }).lean();
    if (existing) {
      await AppSetting.updateOne({ _id: existing._id }, { $set: { value } });
    } else {
      await AppSetting.create({ _id: await nextId('app_settings'), key, value });
    }
  }

  return { getSettings, setSetting };
}

export type SettingService = ReturnType<typeof createSettingService>;
