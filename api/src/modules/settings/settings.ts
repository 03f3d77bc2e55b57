import { LOCAL_LOGO, type Settings } from '@campus/contracts';
import type { AppContext } from '../../context';
import { settingsOf } from './model';

/** The settings every client reads at start (spec §7): the logo. */
export async function getSettings(ctx: AppContext): Promise<Settings> {
  const logo = await settingsOf(ctx).findOne({ key: 'logo_url' }).lean();
  return { logo_url: logo?.value ?? LOCAL_LOGO };
}

export async function setSetting(ctx: AppContext, key: string, value: string): Promise<void> {
  const AppSetting = settingsOf(ctx);
  const existing = await AppSetting.findOne({ key }).lean();
  const id = existing ? existing._id : await ctx.ids.nextId('app_settings');
  await ctx.transaction(async () => {
    if (existing) await AppSetting.updateOne({ _id: id }, { $set: { value } });
    else await AppSetting.create({ _id: id, key, value });
    ctx.publish({ type: 'setting.changed', key });
  });
}
