"""Fair dice: each roll keeps its nonce (and whether the server made it) and the dice it drew."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0004_roll_label_as_data"),
    ]

    operations = [
        migrations.AddField(
            model_name="roll",
            name="nonce",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="roll",
            name="server_nonce",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="roll",
            name="drawn",
            field=models.JSONField(default=list),
        ),
    ]
