import { LOCAL_LOGO, type Settings } from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import type { AppSettingModel } from './model';

export interface SettingServiceDeps {
  models: { AppSetting: AppSettingModel };
  counters: CounterService;
  writes: Transactions<DomainEvent>;
}

export function createSettingService({
  models: { AppSetting },
  counters,
  writes: { transaction, publish },
}: SettingServiceDeps) {
  const { nextId } = counters;

  async function getSettings(): Promise<Settings> {
    const logo = await AppSetting.findOne({ key: 'logo_url' }).lean();
    return { logo_url: logo?.value ?? LOCAL_LOGO };
  }

  async function setSetting(key: string, value: string): Promise<void> {
    const existing = await AppSetting.findOne({ key }).lean();
    const id = existing ? existing._id : await nextId('app_settings');
    await transaction(async () => {
      if (existing) await AppSetting.updateOne({ _id: id }, { $set: { value } });
      else await AppSetting.create({ _id: id, key, value });
      publish({ type: 'setting.changed', key });
    });
  }

  return { getSettings, setSetting };
}

export type SettingService = ReturnType<typeof createSettingService>;
